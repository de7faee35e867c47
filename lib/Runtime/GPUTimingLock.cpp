//===- GPUTimingLock.cpp - one process at a time on the GPU ---------------===//

#include "ke/Runtime/GPUTimingLock.h"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ke::runtime;

/// The physical GPU behind the process's device `device`: its entry of
/// CUDA_VISIBLE_DEVICES (an index or a UUID, as a scheduler such as Slurm
/// sets it), else the index itself. Jobs given different GPUs of one node
/// then lock different files.
static std::string getPhysicalDevice(int device) {
  const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!visible || !*visible)
    return std::to_string(device);
  std::string list = visible;
  size_t begin = 0;
  for (int index = 0; begin <= list.size(); ++index) {
    size_t end = list.find(',', begin);
    if (end == std::string::npos)
      end = list.size();
    if (index == device) {
      std::string id = list.substr(begin, end - begin);
      for (char &c : id)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-')
          c = '_';
      return id.empty() ? std::to_string(device) : id;
    }
    begin = end + 1;
  }
  return std::to_string(device);
}

std::string GPUTimingLock::getPath(int device) {
  const char *directory = std::getenv("KE_GPU_LOCK_DIR");
  if (!directory || !*directory)
    directory = std::getenv("TMPDIR");
  if (!directory || !*directory)
    directory = "/tmp";
  return std::string(directory) + "/ke-gpu" + getPhysicalDevice(device) +
         ".lock";
}

GPUTimingLock::GPUTimingLock(int device) {
  std::string path = getPath(device);
  // Other users' processes share the GPU too: the file is world-writable,
  // and a read-only descriptor is enough to flock a file made by another.
  mode_t previous = umask(0);
  descriptor = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  umask(previous);
  if (descriptor < 0)
    descriptor = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) {
    problem = "cannot open " + path + ": " + std::strerror(errno);
    return;
  }
  auto began = std::chrono::steady_clock::now();
  int result;
  do
    result = flock(descriptor, LOCK_EX);
  while (result != 0 && errno == EINTR);
  if (result != 0) {
    problem = "cannot lock " + path + ": " + std::strerror(errno);
    close(descriptor);
    descriptor = -1;
    return;
  }
  waitedMilliseconds = std::chrono::duration<double, std::milli>(
                           std::chrono::steady_clock::now() - began)
                           .count();
}

GPUTimingLock::~GPUTimingLock() {
  if (descriptor >= 0)
    close(descriptor); // closing releases the flock
}
