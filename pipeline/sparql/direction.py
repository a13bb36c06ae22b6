"""Which way a metric is better, read from its label: an error rate, a loss, a distance or a time taken is better
lower; an accuracy or a score higher. Where the label does not say, "best" is not guessed."""
from __future__ import annotations

import re

# a metric whose smaller values are better: its best is its lowest
_LOWER_BETTER = re.compile(r"\b(?:error|errors|loss|brier|perplexity|ppl|distance|rmse|mse|mae|wer|cer|eer|ter|fid|"
                           r"latency|time|rmsd|deviation|mape|smape|miss\s+rate|false\s+(?:positive|negative|alarm)|fpr|fnr|bpc|bpb|nll|"
                           r"bits\s+per)\b|(?:rmse|mae|mse)$", re.I)


# a metric whose larger values are better: its best is its highest
_HIGHER_BETTER = re.compile(r"\b(?:acc|accuracy|f1|f\s*score|f\s*measure|precision|recall|auc|auroc|auprc|roc|map|"
                            r"ap|ap\d+|iou|miou|dice|bleu|rouge|meteor|cider|spice|chrf|sari|em|exact\s+match|score|"
                            r"scores|success|correct|hits?|mrr|ndcg|psnr|ssim|pck|pearson|spearman|correlation|kappa|"
                            r"reward|return|top\s*\d|r|p|efficiency|yield|performance|cop|survival|pass\s+rates?)\b"
                            r"(?!\s*(?:error|loss))|"
                            r"@\d", re.I)


def _says(pattern: re.Pattern[str], metric: str) -> tuple[bool, bool]:
    """Whether the label outside its parentheses, and the whole label, match ``pattern``."""
    text = metric.replace("-", " ")
    return pattern.search(re.sub(r"\([^)]*\)", " ", text)) is not None, pattern.search(text) is not None


def lower_is_better(metric: str) -> bool:
    """Whether a metric's label says smaller is better (an error rate, a loss, a distance, perplexity); its words
    outside parentheses first ('Success Rate (RMSD < 2Å)' is a success rate)."""
    (lower, lower_any), (higher, _) = _says(_LOWER_BETTER, metric), _says(_HIGHER_BETTER, metric)
    return lower or (lower_any and not higher)


def direction_known(metric: str) -> bool:
    """Whether a metric's label says which way is better (an error: lower; an accuracy, a score: higher): "best"
    on any other is not guessed."""
    return lower_is_better(metric) or any(_says(_HIGHER_BETTER, metric))
