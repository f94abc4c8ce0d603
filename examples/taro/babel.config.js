module.exports = {
  presets: [["taro", { framework: "react", ts: false, compiler: "webpack5" }]],
};
