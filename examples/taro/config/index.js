// Taro's project configuration: nothing in it is for paybridge.
module.exports = function () {
  return {
    projectName: "paybridge-example-taro",
    date: "2026-11-27",
    designWidth: 750,
    deviceRatio: { 640: 2.34 / 2, 750: 1, 828: 1.81 / 2 },
    sourceRoot: "src",
    outputRoot: `dist/${process.env.TARO_ENV}`,
    plugins: [],
    defineConstants: {},
    copy: { patterns: [], options: {} },
    framework: "react",
    compiler: "webpack5",
    cache: { enable: false },
    mini: {},
  };
};
