"""A small speaker embedding network with WeSpeaker's input and output: log-mel features
[batch, frames, 80] (mean-removed, as transformers.js' WeSpeakerFeatureExtractor gives them)
to an embedding [batch, 256].

TDNN layers (conv1d with batch norm and ReLU, dilations 1, 2, 3), statistics pooling
(mean and standard deviation over time) and a linear layer. With `attention`, the statistics
are weighted over time by a small attention network (attentive statistics pooling, as in
ECAPA-TDNN), so that frames that say most about the speaker count most.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def block(cin, cout, k, d=1):
    return nn.Sequential(nn.Conv1d(cin, cout, k, dilation=d), nn.BatchNorm1d(cout), nn.ReLU())


class Embedder(nn.Module):
    def __init__(self, feat=80, c=192, pooled=384, dim=256, attention=0):
        super().__init__()
        self.layers = nn.Sequential(block(feat, c, 5), block(c, c, 3, 2), block(c, c, 3, 3), block(c, c, 1),
                                    block(c, pooled, 1))
        self.attention = nn.Sequential(nn.Conv1d(pooled, attention, 1), nn.Tanh(),
                                       nn.Conv1d(attention, pooled, 1)) if attention else None
        self.embedding = nn.Linear(2 * pooled, dim)

    def forward(self, input_features):  # [B, T, 80] -> [B, dim]
        x = self.layers(input_features.transpose(1, 2))
        if self.attention is None:
            mean = x.mean(dim=2)
            std = torch.sqrt(torch.clamp((x * x).mean(dim=2) - mean * mean, min=1e-5))
        else:
            w = torch.softmax(self.attention(x), dim=2)
            mean = (w * x).sum(dim=2)
            std = torch.sqrt(torch.clamp((w * x * x).sum(dim=2) - mean * mean, min=1e-5))
        return self.embedding(torch.cat([mean, std], dim=1))


class MarginSoftmax(nn.Module):
    """Additive-margin softmax over the training speakers (not exported)."""

    def __init__(self, dim, n, scale=30.0):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n, dim) * 0.01)
        self.scale = scale

    def forward(self, emb, labels, margin):
        cos = F.linear(F.normalize(emb), F.normalize(self.weight))
        logits = self.scale * (cos - margin * F.one_hot(labels, cos.shape[1]))
        return F.cross_entropy(logits, labels), (cos.argmax(dim=1) == labels).float().mean()
