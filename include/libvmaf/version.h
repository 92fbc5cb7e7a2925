/* <libvmaf/version.h>: the libvmaf API that lockstep implements (lockstep's own version is
 * vmaf_version()). */
#ifndef LOCKSTEP_LIBVMAF_VERSION_H
#define LOCKSTEP_LIBVMAF_VERSION_H

#define VMAF_API_VERSION_MAJOR 3
#define VMAF_API_VERSION_MINOR 2
#define VMAF_API_VERSION_PATCH 0

#endif
