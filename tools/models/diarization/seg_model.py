"""A small frame classifier with pyannote segmentation 3.0's frame grid and powerset output.

Front end as SincNet's geometry (learned filters instead of sinc ones): waveform instance norm,
conv1d(1->32, kernel 251, stride 10), |x|, maxpool 3, instance norm, leaky ReLU, then twice
conv1d(kernel 5) + maxpool 3 + instance norm + leaky ReLU; no padding, so 160000 samples give
589 frames and frame i covers samples [270 i, 270 i + 990). Then a 2-layer bidirectional LSTM
(hidden 64), two linear layers and log-softmax over the 7 powerset classes:
0 nobody, 1 {0}, 2 {1}, 3 {2}, 4 {0,1}, 5 {0,2}, 6 {1,2}.
"""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

POWERSET = [(), (0,), (1,), (2,), (0, 1), (0, 2), (1, 2)]
# [7, 3]: which local speakers each class holds
MAPPING = torch.tensor([[1.0 if s in c else 0.0 for s in range(3)] for c in POWERSET])
PERMUTATIONS = list(itertools.permutations(range(3)))


class Segmenter(nn.Module):
    def __init__(self, c1=32, c2=48, hidden=64):
        super().__init__()
        self.wav_norm = nn.InstanceNorm1d(1, affine=True)
        self.conv1 = nn.Conv1d(1, c1, 251, stride=10)
        self.norm1 = nn.InstanceNorm1d(c1, affine=True)
        self.conv2 = nn.Conv1d(c1, c2, 5)
        self.norm2 = nn.InstanceNorm1d(c2, affine=True)
        self.conv3 = nn.Conv1d(c2, c2, 5)
        self.norm3 = nn.InstanceNorm1d(c2, affine=True)
        self.lstm = nn.LSTM(c2, hidden, num_layers=2, bidirectional=True, batch_first=True)
        self.linear1 = nn.Linear(2 * hidden, hidden)
        self.classifier = nn.Linear(hidden, len(POWERSET))

    def forward(self, input_values):  # [B, 1, samples] -> [B, frames, 7] log-probabilities
        x = self.wav_norm(input_values)
        x = F.leaky_relu(self.norm1(F.max_pool1d(torch.abs(self.conv1(x)), 3)))
        x = F.leaky_relu(self.norm2(F.max_pool1d(self.conv2(x), 3)))
        x = F.leaky_relu(self.norm3(F.max_pool1d(self.conv3(x), 3)))
        x, _ = self.lstm(x.transpose(1, 2))
        x = F.leaky_relu(self.linear1(x))
        return F.log_softmax(self.classifier(x), dim=-1)


def powerset_targets(act):
    """act [B, F, 3] (0/1, at most 2 active per frame) -> class indices [B, F]."""
    codes = act[..., 0] * 1 + act[..., 1] * 2 + act[..., 2] * 4
    table = torch.full((8,), 0, dtype=torch.long)
    for k, c in enumerate(POWERSET):
        table[sum(1 << s for s in c)] = k
    # frames with all three active (not representable) count as the pair of the first two
    table[7] = 4
    return table[codes.long()]


def pit_loss(logp, act):
    """Permutation-invariant powerset cross-entropy: min over the 6 speaker orders per chunk."""
    losses = []
    for p in PERMUTATIONS:
        t = powerset_targets(act[..., list(p)])
        losses.append(F.nll_loss(logp.transpose(1, 2), t, reduction="none").mean(dim=1))
    return torch.stack(losses, dim=1).min(dim=1).values.mean()


def to_multilabel(logp):
    """[B, F, 7] -> [B, F, 3] 0/1 activity of the most likely class."""
    return MAPPING[logp.argmax(dim=-1)]
