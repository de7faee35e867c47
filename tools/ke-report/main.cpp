//===- main.cpp - ke-report -----------------------------------------------===//

#include "../ToolMains.h"

int main(int argc, char **argv) { return keReportMain(argc, argv); }
