# An embedding lookup summed over the bag: the indices' valid range is the
# table's row count, not what the example happens to hold.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, rows, features):
        super().__init__()
        self.table = nn.Embedding(rows, features)

    def forward(self, indices):
        return self.table(indices).sum(dim=1)


batch_size = 32
bag = 8
rows = 1000
features = 64


def get_inputs():
    return [torch.randint(0, 10, (batch_size, bag))]


def get_init_inputs():
    return [rows, features]
