"""Every array layout declared field by field (sim/fields.py): no two fields share an entry,
every field lies inside its array, and each field's offset is the module constant of its name."""

import pytest

import policies.forbidden_island.expert as fi_expert
import sim.forbidden_island.layout as fi_layout
import sim.island_escape.layout as ie_layout
from sim.fields import Layout

# (module, layout, the size of the array it lays out)
LAYOUTS = [
    (ie_layout, ie_layout.STATE, ie_layout.NSTATE),
    (ie_layout, ie_layout.PARAMS, ie_layout.NPARAMS),
    (fi_layout, fi_layout.STATE, fi_layout.NSTATE),
    (fi_layout, fi_layout.PARAMS, fi_layout.NPARAMS),
    (fi_expert, fi_expert.BOARD_INTS, fi_expert.NBI),
    (fi_expert, fi_expert.BOARD_FLOATS, fi_expert.NB),
]


@pytest.mark.parametrize(("module", "layout", "size"), LAYOUTS, ids=[lay.name for _, lay, _ in LAYOUTS])
def test_no_two_fields_overlap_and_every_field_lies_inside_the_array(module, layout, size):
    assert layout.fields
    assert layout.overlaps(size) == []
    for name, (start, _) in layout.fields.items():
        assert getattr(module, name) == start, name  # the constant the kernels and players read
        assert type(getattr(module, name)) is int  # a plain int: numba reads it as a constant


def test_the_offsets_of_the_compiled_code_stay_where_they_were():
    ie, fi = ie_layout, fi_layout
    assert (ie.CARD, ie.HAND, ie.COUNT, ie.FACE_UP_LAND, ie.NSTATE) == (0, 54, 86, 99, 103)
    assert (ie_layout.P_GRANK, ie_layout.NPARAMS) == (6, 16)
    assert (fi.HAND, fi.FLAYER, fi.COUNT, fi.NSTATE, fi.NPARAMS) == (58, 158, 201, 219, 8)
    assert (fi_expert.BI_PAWN, fi_expert.BI_GOAL, fi_expert.BI_D, fi_expert.BI_PATHS) == (10, 137, 619, 1142)
    assert (fi_expert.B_GOALW, fi_expert.B_RISE, fi_expert.B_W, fi_expert.NB) == (48, 120, 130, 394)


def test_the_check_finds_two_fields_that_overlap():
    layout = Layout("sample")
    layout.field("A", 4)
    layout.field("B", 2)
    assert layout.overlaps() == []
    layout.fields["B"] = (3, 2)  # B moved onto A's last entry
    assert layout.overlaps() == ["sample: A [0, 4) overlaps B [3, 5)"]


def test_the_check_finds_a_field_outside_the_array():
    layout = Layout("sample")
    layout.field("A", 4)
    layout.field("B", 2)
    assert layout.overlaps(5) == ["sample: B [4, 6) lies outside [0, 5)"]


def test_a_field_is_declared_once_and_holds_an_entry():
    layout = Layout("sample")
    layout.field("A")
    with pytest.raises(ValueError, match="declared twice"):
        layout.field("A")
    with pytest.raises(ValueError, match="size 0"):
        layout.field("C", 0)
