"""The emotion test model: a small network on the raw waveform with the interface of
Wav2Vec2ForSequenceClassification (input `input_values` [batch, samples], output `logits`
[batch, classes]), so transformers.js loads it as the production wav2vec2 emotion models.

A learned filterbank (25 ms windows every 10 ms) -> log power -> two temporal convolutions ->
mean and standard deviation over time -> a linear layer. The waveform comes normalised (zero
mean, unit variance) by Wav2Vec2FeatureExtractor, as for the production models.
"""
import torch
from torch import nn


class EmotionNet(nn.Module):
    def __init__(self, classes=4, filters=64, hidden=96):
        super().__init__()
        self.bank = nn.Conv1d(1, filters, kernel_size=400, stride=160, bias=False)
        self.body = nn.Sequential(
            nn.Conv1d(filters, hidden, 5, padding=2), nn.ReLU(),
            nn.Conv1d(hidden, hidden, 5, padding=4, dilation=2), nn.ReLU(),
        )
        self.norm = nn.BatchNorm1d(filters)
        self.head = nn.Linear(2 * hidden, classes)

    def forward(self, input_values):
        x = self.bank(input_values.unsqueeze(1))
        x = torch.log(x * x + 1e-4)
        x = self.body(self.norm(x))
        stats = torch.cat([x.mean(dim=2), x.std(dim=2)], dim=1)
        return self.head(stats)
