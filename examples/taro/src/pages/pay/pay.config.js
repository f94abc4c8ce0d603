export default {
  navigationBarTitleText: "Pay",
};
