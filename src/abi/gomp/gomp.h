// Shared declarations for the libgomp ABI adapters.
#pragma once

#include "core/team.h"
