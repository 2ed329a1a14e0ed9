#include <stdio.h>
#include <hyphen.h>
