//===- ProcMaps.h - The files a process maps ------------------------------===//
//
// /proc/PID/maps names each mapped file by device and inode as well as by
// path: whatever path a file was mapped by (a link, a bind mount, a memfd
// passed through /proc), those two say which file it is.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_PROCMAPS_H
#define TSCC_RUNTIME_PTRACE_PROCMAPS_H

#include <sys/types.h>

#include <functional>

namespace tscc::rt::pt {

/// Whether process Pid maps a file for which Match(device, inode) holds;
/// false if its maps cannot be read (it is gone).
bool mapsFileWhere(pid_t Pid, const std::function<bool(dev_t, ino_t)> &Match);

/// Whether process Pid maps the file of tsrun's descriptor Fd.
bool mapsFileOf(pid_t Pid, int Fd);

} // namespace tscc::rt::pt

#endif
