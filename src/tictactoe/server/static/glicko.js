// Glicko-2 (Glickman, "Example of the Glicko-2 system"), one game a rating period: a solver's
// rating against a puzzle's. Ratings on the usual scale (1500 start); the puzzle's deviation is
// fixed, since puzzles are rated from their proofs and not (yet) from the solvers' results.
const SCALE = 173.7178;
const TAU = 0.5;
export const START = { rating: 1500, deviation: 350, volatility: 0.06 };
const PUZZLE_DEVIATION = 80;
const MIN_DEVIATION = 45;

const g = (phi) => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));

// The player's new { rating, deviation, volatility } after `score` (1 solved, 0 failed) against
// a puzzle rated `opponent`.
export function rate(player, opponent, score) {
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.deviation / SCALE;
  const sigma = player.volatility;
  const muJ = (opponent - 1500) / SCALE;
  const gJ = g(PUZZLE_DEVIATION / SCALE);
  const expected = 1 / (1 + Math.exp(-gJ * (mu - muJ)));
  const v = 1 / (gJ * gJ * expected * (1 - expected));
  const delta = v * gJ * (score - expected);
  // The new volatility: the Illinois algorithm on f(x), as the paper's step 5.
  const a = Math.log(sigma * sigma);
  const f = (x) => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (TAU * TAU);
  };
  let A = a;
  let B;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * TAU) < 0) k += 1;
    B = a - k * TAU;
  }
  let fA = f(A);
  let fB = f(B);
  for (let i = 0; i < 100 && Math.abs(B - A) > 1e-6; i++) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) { A = B; fA = fB; } else fA /= 2;
    B = C;
    fB = fC;
  }
  const volatility = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + volatility * volatility);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * gJ * (score - expected);
  return {
    rating: 1500 + SCALE * muNew,
    deviation: Math.max(MIN_DEVIATION, SCALE * phiNew),
    volatility,
  };
}
