/* Built from extensions/saved-items-theme-src by npm run build:extensions */
import{y as n}from"./saved-items-core-2OZX726P.js";async function s(e){let{lists:t}=await n(e,"lists",{limit:"100"});return t.some(o=>o.context===e.context)?t:[{context:e.context,name:null,itemCount:0},...t]}var m=(e,t)=>t.name||(t.context===e.context?e.text("default"):t.context);export{s as a,m as b};
