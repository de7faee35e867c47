//===- main.cpp - ke-opt --------------------------------------------------===//

#include "../ToolMains.h"

int main(int argc, char **argv) { return keOptMain(argc, argv); }
