"""The seats' colours stay apart for every common kind of colour vision.

The palette is read where clients get it, ``GET /api/boards/{rules}`` (``palette``). Each
colour is simulated as a person with protanopia, deuteranopia or tritanopia sees it
(Machado, Oliveira and Fernandes 2009, severity 1, on linear sRGB; their tritan
matrices shift the S cone, an approximation of tritanopia) and every two seat
colours must then differ by at least 10 (CIEDE2000); so too in normal vision. The colour
maths is colour-science's; its CIEDE2000 is first checked against pairs of Sharma, Wu
and Dalal's published test data (2005), so that a wrong formula can't pass.
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import pytest

from ghostparty.server.wire.codec import board_view, contrast

colour = pytest.importorskip("colour", reason="colour-science is not installed (pip install colour-science)")
np = pytest.importorskip("numpy")

#: The least CIEDE2000 difference allowed between two seat colours.
MIN_DELTA_E = 10.0
VISIONS = ("normal", "Protanomaly", "Deuteranomaly", "Tritanomaly")

#: Sharma, Wu, Dalal (2005), "The CIEDE2000 color-difference formula: implementation
#: notes, supplementary test data, and mathematical observations", table 1: pairs
#: 1, 7, 13, 17, 19, 25 and 34 (L*, a*, b* of each, and ΔE00).
SHARMA = [
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.1736, 0.5854), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


def _palette(rules: str) -> dict[str, str]:
    board: dict[str, Any] = board_view(rules)
    return {name: board["palette"][name]["fill"] for name in board["colours"]}


def _seen(hex_colour: str, vision: str) -> Any:
    """CIELAB (D65) of ``#rrggbb`` as a person with ``vision`` sees it."""
    srgb = colour.RGB_COLOURSPACES["sRGB"]
    encoded = np.array([int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    linear = colour.cctf_decoding(encoded, function="sRGB")
    if vision != "normal":
        with warnings.catch_warnings():  # that tritanomaly is modelled by a shift of the S cone
            warnings.simplefilter("ignore", colour.utilities.ColourUsageWarning)
            matrix = colour.blindness.matrix_cvd_Machado2009(vision, 1.0)
        linear = np.clip(matrix @ linear, 0, 1)
    xyz = colour.RGB_to_XYZ(linear, srgb, apply_cctf_decoding=False)
    return colour.XYZ_to_Lab(xyz, srgb.whitepoint)


def _delta(first: Any, second: Any) -> float:
    return float(colour.delta_E(np.asarray(first), np.asarray(second), method="CIE 2000"))


@pytest.mark.parametrize(("first", "second", "expected"), SHARMA)
def test_ciede2000_matches_sharmas_test_data(first: Any, second: Any, expected: float) -> None:
    assert _delta(first, second) == pytest.approx(expected, abs=1e-4)
    assert _delta(second, first) == pytest.approx(expected, abs=1e-4)


def test_the_simulation_finds_the_old_palettes_confusions() -> None:
    """The palette before issue 17: blue and purple ≈ 2.6 apart under deuteranopia,
    turquoise and green ≈ 8.6 under tritanopia (what the issue measured)."""
    blue, purple, turquoise, green = "#3a74d8", "#9155c9", "#2bb3a8", "#3fa04f"
    assert _delta(_seen(blue, "Deuteranomaly"), _seen(purple, "Deuteranomaly")) == pytest.approx(2.6, abs=0.2)
    assert _delta(_seen(turquoise, "Tritanomaly"), _seen(green, "Tritanomaly")) == pytest.approx(8.6, abs=0.2)
    assert _delta(_seen(blue, "normal"), _seen(purple, "normal")) > 15


@pytest.mark.parametrize("rules", ["hugo", "midnight-party"])
@pytest.mark.parametrize("vision", VISIONS)
def test_every_two_seat_colours_stay_apart(rules: str, vision: str) -> None:
    palette = _palette(rules)
    assert len(palette) == 8 and len(set(palette.values())) == 8
    seen = {name: _seen(value, vision) for name, value in palette.items()}
    closest = min((_delta(seen[a], seen[b]), a, b) for a, b in itertools.combinations(palette, 2))
    assert closest[0] >= MIN_DELTA_E, f"{vision}: {closest[1]} and {closest[2]} are {closest[0]:.1f} apart"


@pytest.mark.parametrize("rules", ["hugo", "midnight-party"])
def test_each_seat_letter_reads_on_its_colour(rules: str) -> None:
    """The letter on a token (the second cue) has WCAG AA contrast (4.5) on its colour."""
    for name, drawn in board_view(rules)["palette"].items():
        assert contrast(drawn["fill"], drawn["ink"]) >= 4.5, name


def test_contrast_is_wcags() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#123456", "#123456") == pytest.approx(1.0)
