# A hinge loss whose targets broadcast along the predictions' last
# dimension, so its batch must equal that dimension (a tuple-valued shape):
# neither size can be halved alone.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, predictions, targets):
        return torch.mean(torch.clamp(1 - predictions * targets, min=0))


batch_size = 1024
input_shape = (1024,)


def get_inputs():
    signs = torch.randint(0, 2, (batch_size,)).float() * 2 - 1
    return [torch.rand(batch_size, *input_shape), signs]


def get_init_inputs():
    return []
