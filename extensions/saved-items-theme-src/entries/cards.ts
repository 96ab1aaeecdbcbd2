// The card hearts embed's module (assets/saved-items-cards.js).
import { initCardHearts } from "../card-hearts";
import { defineBlock } from "../main";

defineBlock("cards", initCardHearts);
