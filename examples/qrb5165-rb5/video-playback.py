#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the two video-playback scenarios of docs/energy.md's worked
example for the Qualcomm RB5 (qrb5165-rb5.dtb):

  video-playback.scn       one second of 30 fps playback: the display
                               (mdss_mdp at 345 MHz) all along; each frame
                               decoded by venus at 720 MHz for 12 ms; the
                               SD card (sdhc_2 at 202 MHz) read in a 30 ms
                               burst every 8th frame, from that frame's start
  video-playback-race.scn  the same, but a frame decoded during a burst
                               takes 12 ms x 720 / 1098: venus ran at 1.098
                               GHz there (what `--follow venus` allows while
                               the burst holds MX at svs_l1) and the work of
                               a frame is fixed, so it finishes sooner

usage: video-playback.py   (writes both next to itself)"""
import os

FRAME = 33333333          # ns, 30 fps
DECODE = 12000000         # ns at 720 MHz
FAST = -(-DECODE * 720 // 1098)  # ns at 1.098 GHz, rounded up
BURST = 30000000          # ns of SD card reading
EVERY = 8                 # frames between bursts
FRAMES = 30
END = 1000000000


def scenario(race):
    out = [
        "# Video playback on the Qualcomm RB5, one second at 30 fps (written by",
        "# examples/qrb5165-rb5/video-playback.py; docs/energy.md's worked example).",
        "# rpmhpd:6 = MMCX (display), rpmhpd:8 = MX (venus votes it), rpmhpd:0 = CX",
        "# (the SD card votes it; CX requires the same level of MX, its parent).",
        "# venus asks for 720 MHz (MX at low_svs); an SD burst holds MX at svs_l1.",
    ]
    if race:
        out += ["# The race variant: a frame decoded during a burst takes %d ns, the" % FAST,
                "# time the same work takes at 1.098 GHz (run it with --follow venus)."]
    ev = [(0, 0, "resume mdss"), (0, 1, "resume mdss_mdp"), (0, 2, "rate mdss_mdp 345MHz")]
    for f in range(FRAMES):
        t = f * FRAME
        burst = f % EVERY == 0
        if burst:
            ev += [(t, 3, "resume sdhc_2"), (t, 4, "rate sdhc_2 202MHz"),
                   (t + BURST, 0, "suspend sdhc_2")]
        ev += [(t, 5, "resume venus"), (t, 6, "rate venus 720MHz"),
               (t + (FAST if race and burst else DECODE), 1, "suspend venus")]
    ev += [(END, 0, "suspend mdss_mdp"), (END, 1, "suspend mdss")]
    ev.sort()
    for t, _, cmd in ev:
        out.append("@%dns %s" % (t, cmd))
    return "\n".join(out) + "\n"


here = os.path.dirname(os.path.abspath(__file__))
for race in (0, 1):
    name = "video-playback%s.scn" % ("-race" if race else "")
    with open(os.path.join(here, name), "w") as f:
        f.write(scenario(race))
