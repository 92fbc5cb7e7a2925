#include "lockstep/feature.h"
