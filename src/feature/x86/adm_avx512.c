/* placeholder */
#include "feature/adm.h"
void ls_adm_dsp_init_avx512(LsAdmDsp *dsp) { (void)dsp; }
