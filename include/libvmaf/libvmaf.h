/* Source compatibility for programs written against libvmaf: #include <libvmaf/libvmaf.h>. */
#include "lockstep/lockstep.h"
