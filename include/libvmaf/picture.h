#include "lockstep/picture.h"
