#ifndef CDLOG_CSCAN_PRIVATE_H
#define CDLOG_CSCAN_PRIVATE_H
/* Helpers the C files of CScan share; not part of the module's interface. */

static inline unsigned char cscan_upper(unsigned char lower) {
    return (lower >= 'a' && lower <= 'z') ? (unsigned char)(lower - 0x20) : lower;
}


static inline unsigned char cscan_lower(unsigned char c) {
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c | 0x20) : c;
}

#endif
