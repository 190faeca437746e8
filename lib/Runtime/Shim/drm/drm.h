/* <linux/kfd_ioctl.h> includes <drm/drm.h>, the DRM uapi header. Debian ships
   it in libdrm-dev as <libdrm/drm.h> (linux-libc-dev has no drm/); this
   forwards to it. Used only when the system has no <drm/drm.h>. */
#include <libdrm/drm.h>
