export default {
  pages: ["pages/pay/pay"],
};
