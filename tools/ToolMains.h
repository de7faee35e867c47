//===- ToolMains.h - the tools' entry points --------------------*- C++ -*-===//
//
// Each tool's main is a function so that the release archive can ship one
// multi-call binary (tools/release/ke.cpp) instead of a copy of MLIR per tool.
//
//===----------------------------------------------------------------------===//

#ifndef KE_TOOLS_TOOLMAINS_H
#define KE_TOOLS_TOOLMAINS_H

int keOptMain(int argc, char **argv);
int keRunMain(int argc, char **argv);
int keReportMain(int argc, char **argv);
int keGpuRunMain(int argc, char **argv);

#endif // KE_TOOLS_TOOLMAINS_H
