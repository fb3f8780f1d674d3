/* The installed public headers of libsoftchat, for the CSoftchat module on Linux. */
#include <softchat/softchat.h>
