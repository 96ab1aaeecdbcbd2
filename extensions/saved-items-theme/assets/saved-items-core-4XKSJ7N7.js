/* Built from extensions/saved-items-theme-src by npm run build:extensions */
import{y as o}from"./saved-items-core-IEBNKJNJ.js";async function c(t){return i(t,(await o(t,"lists",{limit:"100"})).lists)}var i=(t,e)=>e.some(n=>n.context===t.context)?e:[{context:t.context,name:null,itemCount:0},...e],s=(t,e)=>e.name||(e.context===t.context?t.text("default"):e.context);export{c as a,i as b,s as c};
