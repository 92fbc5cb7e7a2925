/* Source compatibility for programs written against libvmaf: <libvmaf/libvmaf.h>, or <libvmaf.h>
 * with the libvmaf include directory (pkg-config libvmaf gives both). Relative paths, so that
 * either -I finds the rest. */
#ifndef LOCKSTEP_LIBVMAF_LIBVMAF_H
#define LOCKSTEP_LIBVMAF_LIBVMAF_H
#include "../lockstep/lockstep.h"
#endif
