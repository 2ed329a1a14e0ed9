#include <linebreak.h>
#include <linebreakdef.h>
#include <wordbreak.h>

/* libunibreak's own class table (sorted ranges, ended by LBP_Undefined), which Swift cannot
   import as an array of unknown size. */
static inline const struct LineBreakProperties *layoutd_lb_prop_default(void) { return lb_prop_default; }
