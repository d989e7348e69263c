"""TAC speed: actions validated per second next to python-chess validating PGN, and random games per second.

Rates use process CPU time (one core, robust when the machine is shared). Both sides read text and check every move: TAC records are parsed from JSON and replayed with every rule
(must-play checks included); python-chess parses PGN, whose SAN moves it resolves against the legal moves.
"""

from __future__ import annotations

import io
import json
import random
import time
from typing import Any

from rules.core.replay import verify_bytes
from rules.tac import ENGINE

TAC_RECORDS = 12
CHESS_GAMES = 60
GAMES_FOR_SPEED = 20


def _tac_corpus() -> tuple[list[bytes], int]:
    texts: list[bytes] = []
    actions = 0
    for seed in range(TAC_RECORDS):
        record = ENGINE.random_record({"master": True}, random.Random(seed))
        actions += sum(len(deal["turns"]) for deal in record["deals"])
        texts.append(json.dumps(record).encode())
    return texts, actions


def _chess_corpus() -> tuple[list[str], int]:
    import chess
    import chess.pgn

    rng = random.Random(1)
    pgns: list[str] = []
    moves = 0
    for _ in range(CHESS_GAMES):
        board = chess.Board()
        game = chess.pgn.Game()
        node: Any = game
        while not board.is_game_over(claim_draw=True) and board.ply() < 300:
            move = rng.choice(list(board.legal_moves))
            board.push(move)
            node = node.add_variation(move)
            moves += 1
        pgns.append(str(game))
    return pgns, moves


def _best_of(repeat: int, fn: Any) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        fn()
        best = min(best, time.process_time() - started)
    return best


def run() -> dict[str, Any]:
    import chess.pgn

    texts, tac_actions = _tac_corpus()

    def validate_tac() -> None:
        for i, text in enumerate(texts):
            verdict = verify_bytes(text, file=str(i))
            assert verdict.valid and verdict.complete, verdict.text_line()

    tac_time = _best_of(3, validate_tac)
    pgns, chess_moves = _chess_corpus()

    def validate_chess() -> None:
        for pgn in pgns:
            game = chess.pgn.read_game(io.StringIO(pgn))
            assert game is not None and not game.errors
            game.end().board()

    chess_time = _best_of(3, validate_chess)

    def generate() -> None:
        for seed in range(GAMES_FOR_SPEED):
            ENGINE.random_record({"master": True}, random.Random(10_000 + seed))

    gen_time = _best_of(1, generate)
    tac_rate = tac_actions / tac_time
    chess_rate = chess_moves / chess_time
    return {
        "tac_actions_per_second": round(tac_rate),
        "chess_moves_per_second": round(chess_rate),
        "ratio": round(tac_rate / chess_rate, 3),
        "tac_master_games_per_second": round(GAMES_FOR_SPEED / gen_time, 2),
        "tac_actions_validated": tac_actions,
        "chess_moves_validated": chess_moves,
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
