# No Model class: not a KernelBench-format file.
def get_inputs():
    return []
