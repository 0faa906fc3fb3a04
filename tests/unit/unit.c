/* State of the unit-test harness (see unit.h). */
#include "unit.h"

int unit_failed_cases;
int unit_case_failed;
const char *unit_case_name;
