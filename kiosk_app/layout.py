"""Which of four screen classes the kiosk window is in, and the sizes each class draws with.

Clinics buy very different touch screens. The window asks :func:`metrics_for` on every resize
and hands the result to each screen's ``apply_metrics``:

- ``tall``: landscape at least 1080 px high (1920x1080): the roomy layout.
- ``square``: landscape 5:4 or 4:3 at least 900 px high (1280x1024): slightly smaller type.
- ``short``: landscape under 900 px high (1366x768, 1024x768): compact type, 48 px keys, topics
  in a three-column grid; with the keyboard open the chat's title row folds away so an emergency
  banner and the question box still fit whole.
- ``portrait``: taller than wide (1080x1920): large keys in the bottom third, topics one per row
  in the free space above.

It only computes numbers; it never touches widgets. The emergency banner's text is never drawn
below ``EMERGENCY_TEXT_PT`` and no touch target below ``MIN_TOUCH_PX`` in any class.
"""

from __future__ import annotations

from dataclasses import dataclass

EMERGENCY_TEXT_PT = 24  # the banner's text, in every class
MIN_TOUCH_PX = 48  # WCAG 2.5.5 (AAA) target size; we never go below it


@dataclass(frozen=True)
class Metrics:
    name: str
    body_pt: int  # buttons, intro, keys
    title_pt: int
    chat_scale: float  # engine.qt chat widgets: 11 pt x scale
    key_px: int
    touch_px: int  # buttons and the question box
    topic_columns: int
    margin: int
    spacing: int
    intro_pt: int = 0  # 0: body_pt
    topic_px: int = 0  # 0: touch_px; portrait fills its free space with taller topics
    check_in_beside_title: bool = False  # landscape: no full-width check-in row of its own
    fold_title_with_keyboard: bool = False


TALL = Metrics("tall", 24, 40, 2.3, 62, 72, 2, 80, 14, check_in_beside_title=True)
SQUARE = Metrics("square", 22, 34, 2.1, 58, 64, 2, 48, 12, check_in_beside_title=True)
SHORT = Metrics(
    "short",
    18,
    28,
    1.8,
    MIN_TOUCH_PX,
    56,
    3,
    24,
    8,
    check_in_beside_title=True,
    fold_title_with_keyboard=True,
)
PORTRAIT = Metrics("portrait", 24, 40, 2.3, 92, 80, 1, 40, 16, topic_px=112)

CLASSES = (TALL, SQUARE, SHORT, PORTRAIT)


def metrics_for(width: int, height: int) -> Metrics:
    """The layout class for a window of this size."""
    if height > width:
        return PORTRAIT
    if height >= 1080:
        return TALL
    if height >= 900:
        return SQUARE
    return SHORT
