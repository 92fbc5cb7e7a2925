/* <libvmaf/feature.h>: see libvmaf.h */
#include "../lockstep/feature.h"
