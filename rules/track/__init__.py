"""The marble ring shared by TAC, Tac-Tik and Tock: fields, start fields, homes, paths, occupancy."""

from rules.track.board import Board
from rules.track.marbles import Marbles

__all__ = ["Board", "Marbles"]
