/* <libvmaf/model.h>: see libvmaf.h */
#include "../lockstep/model.h"
