// The constants this page shares with the server (the computer's levels, the rules' default line,
// the small boards' places, the quick reactions), as the server sends them in every page
// (web/page_constants.py): never written again here.
const blob = document.getElementById("page-constants");
const constants = blob ? JSON.parse(blob.textContent) : {};

export const levels = constants.levels ?? [];
export const defaultLine = constants.default_line ?? {};
export const boardPositions = constants.board_positions ?? [];
export const reactions = constants.reactions ?? [];
