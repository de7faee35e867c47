# A Linear then a GroupNorm: PyTorch's group norm decomposition would leave
# constant gather tables in the IR.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, features, groups):
        super().__init__()
        self.linear = nn.Linear(features, features)
        self.norm = nn.GroupNorm(groups, features)

    def forward(self, x):
        return self.norm(self.linear(x))


batch_size = 4
features = 64
groups = 8


def get_inputs():
    return [torch.rand(batch_size, features)]


def get_init_inputs():
    return [features, groups]
