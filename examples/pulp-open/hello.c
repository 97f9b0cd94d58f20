/* The FC alone: prints, returns an exit status. */
#include "pulp_open.h"

int main(void) {
    put_str("Hello from the FC, hart ");
    put_hex(hart_id());
    put_char('\n');
    return 3;
}
