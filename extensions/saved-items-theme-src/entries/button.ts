// The Save button's module (assets/saved-items-button.js): product pages.
import { defineBlock } from "../main";
import { initSaveButton } from "../save-button";

defineBlock("button", initSaveButton);
