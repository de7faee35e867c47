# A cumulative sum and product along rows: torch-mlir writes scans as
# tm_tensor.scan (not upstream MLIR); ke-import decomposes them first.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x, dim=self.dim), torch.cumprod(x * 0.01 + 1.0, dim=self.dim)


batch_size = 16
length = 100
dim = 1


def get_inputs():
    return [torch.randn(batch_size, length)]


def get_init_inputs():
    return [dim]
