// The cart block's module (assets/saved-items-cart.js): "Save for later" on the cart page or drawer.
import { initCartBlock } from "../cart-block";
import { defineBlock } from "../main";

defineBlock("cart", initCartBlock);
