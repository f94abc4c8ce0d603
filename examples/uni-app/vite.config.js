import { defineConfig } from "vite";
import uni from "@dcloudio/vite-plugin-uni";

// uni-app's own plugin and nothing else: nothing here is for paybridge.
export default defineConfig({
  plugins: [uni()],
});
