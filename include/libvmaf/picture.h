/* <libvmaf/picture.h>: see libvmaf.h */
#include "../lockstep/picture.h"
