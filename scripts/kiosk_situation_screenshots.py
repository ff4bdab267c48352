"""Patients who say their situation, or ask whether someone may come with them or whether the
clinic does something, on the real engine: one kiosk session per size and story, every tap a
real pointer click through the X server.

    .venv/bin/python scripts/kiosk_situation_screenshots.py DATA_DIR [--size 1366x768]
        [--story situation|visit|first-aid|fumes|things|ending|seen]

DATA_DIR is a data folder with the sample knowledge ingested (extractive answers). At each of the
five sizes (its own Xvfb with matchbox-window-manager, as scripts/kiosk_long_answer_screenshots.py
does) the patient types on the on-screen keys, in one session.

``situation`` (the default):

1. "my knees are shot these days, have you got a lift up to the first floor?" (a situation, then
   what is asked: answered with the lift sentence),
2. "I'm on warfarin, where do I park?" (answered with the car park),
3. "should I stop it before my colonoscopy?" (a follow-up about the warfarin: the clinical
   referral, never a quote).

``visit`` (eighth session):

1. "can my mum come in with me to the scan" (answered with the sentence about bringing one adult;
   it was the booking sentence, then the leaflet's first sentence),
2. "can I get a CT scan here?" (the documents never name one: "I don't know", never the booking
   sentence),
3. "can I get an ultrasound at your clinic?" (a service the documents name: answered).

``first-aid`` (ninth session):

1. "my son just tipped boiling water down his arm and chest" (the emergency text),
2. "cold tap or cream first?" (first aid for what was just said: the emergency text again, never
   a quote or "I don't know"),
3. "which buses stop outside?" (a question of its own: answered with the bus routes).

``fumes`` (tenth session):

1. "the gas alarm is going off and my wife has passed out" (the emergency text),
2. "open a window?" (airing the room, first aid for what was just said: the emergency text again;
   it was "I don't know"),
3. "is 38.4 a fever for a grown man?" (a question of its own about a reading: the clinical
   referral; it was the emergency text, from the safety net).

``things`` (eleventh session):

1. "can I get a hot drink anywhere inside?" (a hot drink is a thing, not anyone's state: "I don't
   know"; it was the emergency text, from the safety net),
2. "can I get my eyes tested for new glasses here?" (an eye test is a service: "I don't know"; it
   was the emergency text),
3. "the baby got hold of a washing machine capsule and bit it" (the emergency text, now from the
   rules themselves).

``ending`` (eleventh session):

1. "I've had enough of everything and I'm going to finish it" (the emergency text, with the
   Samaritans line; it was answered with the bowel preparation sentence "finish it within 15
   minutes"),
2. "which buses stop outside?" (the next question, of its own: the bus routes),
3. "can I hop off the bus right outside the clinic?" (the bus routes again, never the emergency
   text).

``seen`` (twelfth session):

1. "What am I allowed to eat in the days before a colonoscopy?" (the low-fibre diet and the day
   before; it was "please allow 2 to 3 hours for the whole visit"),
2. "my little one put a marble in her mouth and now she's silent and turning red" (choking without
   the word: the emergency text, now from the rules themselves),
3. "which buses stop outside?" (the next question, of its own: the bus routes).

The screen after each answer is docs/screenshots/kiosk-<W>x<H>-<story>-<n>.png. Needs
``apt-get install xvfb matchbox-window-manager xdotool``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


import scripts.kiosk_long_answer_screenshots as pages  # noqa: E402
import scripts.kiosk_screenshots as shots  # noqa: E402

STORIES = {
    "situation": (
        "my knees are shot these days, have you got a lift up to the first floor?",
        "I'm on warfarin, where do I park?",
        "should I stop it before my colonoscopy?",
    ),
    "visit": (
        "can my mum come in with me to the scan",
        "can I get a CT scan here?",
        "can I get an ultrasound at your clinic?",
    ),
    "first-aid": (
        "my son just tipped boiling water down his arm and chest",
        "cold tap or cream first?",
        "which buses stop outside?",
    ),
    "fumes": (
        "the gas alarm is going off and my wife has passed out",
        "open a window?",
        "is 38.4 a fever for a grown man?",
    ),
    "things": (
        "can I get a hot drink anywhere inside?",
        "can I get my eyes tested for new glasses here?",
        "the baby got hold of a washing machine capsule and bit it",
    ),
    "ending": (
        "I've had enough of everything and I'm going to finish it",
        "which buses stop outside?",
        "can I hop off the bus right outside the clinic?",
    ),
    "seen": (
        "What am I allowed to eat in the days before a colonoscopy?",
        "my little one put a marble in her mouth and now she's silent and turning red",
        "which buses stop outside?",
    ),
}


def session(data_dir: Path, size: tuple[int, int], story: str) -> int:
    app, window = pages.open_kiosk(data_dir, size)
    name = f"{size[0]}x{size[1]}"
    for number, question in enumerate(STORIES[story], 1):
        box = window.welcome.input if number == 1 else window.chat.input
        pages.click(app, box.edit)
        shots.type_on_keys(app, window, question, press=pages.click)
        pages.click(app, window.keyboard.enter_key)
        shots.settle(app, lambda: shots.answered(window), ms=60000)
        pages.wait(app, 500)
        pages.save(pages.screen(app), shots.OUT / f"kiosk-{name}-{story}-{number}.png")
    window.shutdown()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--size", help="one size, e.g. 1366x768")
    parser.add_argument("--story", choices=sorted(STORIES), default="situation")
    parser.add_argument("--here", help=argparse.SUPPRESS)  # run on $DISPLAY at this size
    args = parser.parse_args()
    args.pages = None
    if args.here:
        return session(args.data_dir, pages.parse_size(args.here), args.story)
    sizes = (pages.parse_size(args.size),) if args.size else shots.SIZES
    failed = 0
    for index, size in enumerate(sizes):
        failed |= pages.on_own_display(
            args, size, 80 + index, script=__file__, extra=("--story", args.story)
        )
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
