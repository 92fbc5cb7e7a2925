/* What the CLI reads of a run beyond the public calls (lockstep/run.h): its settings (the
 * score format, where the report goes), the parity twin, the frames read, the progress meter. */
#ifndef LOCKSTEP_TOOLS_RUN_INTERNAL_H
#define LOCKSTEP_TOOLS_RUN_INTERNAL_H

#include <stdbool.h>

#include "cli_parse.h"
#include "lockstep/run.h"

const CliSettings *run_settings(const LockstepRun *run);
/* --parity: the context on the other backend; NULL otherwise */
VmafContext *run_twin(LockstepRun *run);
unsigned run_frames_read(const LockstepRun *run);
/* a progress meter on the terminal (and the pooled scores there too when -o is given) */
bool run_meter(const LockstepRun *run);

#endif
