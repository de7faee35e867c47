//===- HardwareCounters.cpp - perf_event_open around a run ----------------===//

#include "ke/Eval/HardwareCounters.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace ke::eval;

namespace {
int openCounter(uint64_t config) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.size = sizeof(attr);
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = config;
  attr.disabled = 1;
  attr.inherit = 1; // threads the kernel starts (OpenMP) count too
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.read_format =
      PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, /*pid=*/0,
                                  /*cpu=*/-1,
                                  /*group_fd=*/-1, /*flags=*/0));
}

std::string paranoidLevel() {
  std::ifstream file("/proc/sys/kernel/perf_event_paranoid");
  std::string level;
  return file >> level ? level : "unknown";
}
} // namespace

llvm::Expected<std::unique_ptr<HardwareCounters>> HardwareCounters::open() {
  std::unique_ptr<HardwareCounters> counters(new HardwareCounters());
  const std::pair<const char *, uint64_t> events[] = {
      {"cycles", PERF_COUNT_HW_CPU_CYCLES},
      {"instructions", PERF_COUNT_HW_INSTRUCTIONS},
      {"cache_misses", PERF_COUNT_HW_CACHE_MISSES}};
  for (auto [index, event] : llvm::enumerate(events)) {
    int fd = openCounter(event.second);
    if (fd < 0) {
      std::string reason = std::strerror(errno);
      return llvm::createStringError(
          std::string("perf_event_open(") + event.first + "): " + reason +
          " (kernel.perf_event_paranoid = " + paranoidLevel() +
          "; a VM without a virtual PMU has no hardware counters)");
    }
    counters->counters[index] = {event.first, fd};
  }
  return counters;
}

HardwareCounters::~HardwareCounters() {
  for (Counter &counter : counters)
    if (counter.fd >= 0)
      close(counter.fd);
}

void HardwareCounters::start() {
  for (Counter &counter : counters) {
    ioctl(counter.fd, PERF_EVENT_IOC_RESET, 0);
    ioctl(counter.fd, PERF_EVENT_IOC_ENABLE, 0);
  }
}

std::map<std::string, double> HardwareCounters::stop() {
  std::map<std::string, double> values;
  for (Counter &counter : counters) {
    ioctl(counter.fd, PERF_EVENT_IOC_DISABLE, 0);
    uint64_t data[3] = {0, 0, 0}; // value, time enabled, time running
    if (read(counter.fd, data, sizeof(data)) != sizeof(data))
      continue;
    double value = double(data[0]);
    if (data[2] > 0 && data[2] < data[1])
      value *= double(data[1]) / double(data[2]);
    values[counter.name] = value;
  }
  return values;
}
