// The Saved items block's module (assets/saved-items-list.js).
import { defineBlock } from "../main";
import { initSavedItemsList } from "../saved-items-list";

defineBlock("list", initSavedItemsList);
