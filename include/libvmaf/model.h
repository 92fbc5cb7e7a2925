#include "lockstep/model.h"
