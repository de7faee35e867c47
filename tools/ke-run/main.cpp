//===- main.cpp - ke-run --------------------------------------------------===//

#include "../ToolMains.h"

int main(int argc, char **argv) { return keRunMain(argc, argv); }
