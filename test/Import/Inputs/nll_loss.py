# A loss over integer class labels: log-softmax then NLL, mean-reduced to a
# 0-d tensor. The labels' valid range is the number of classes.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits, labels):
        return torch.nn.functional.nll_loss(torch.log_softmax(logits, dim=1), labels)


batch_size = 128
num_classes = 100


def get_inputs():
    return [torch.randn(batch_size, num_classes), torch.randint(0, 7, (batch_size,))]


def get_init_inputs():
    return []
