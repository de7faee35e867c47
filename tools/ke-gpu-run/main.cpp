//===- main.cpp - ke-gpu-run ----------------------------------------------===//

#include "../ToolMains.h"

int main(int argc, char **argv) { return keGpuRunMain(argc, argv); }
