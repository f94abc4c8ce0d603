import { useState } from "react";
import { View, Button, Text } from "@tarojs/components";
import Taro from "@tarojs/taro";
import { ready, pay } from "paybridge/miniprogram";

// Loads the module at launch: the JavaScript build in this bundle.
ready();

// The order, as the merchant's server answers it. For wallet1 (alipay)
// the server's tradeNO; for wallet2 (weapp) its requestPayment fields.
async function order() {
  if (process.env.TARO_ENV === "alipay") return { pay_channel: "wallet1_lite", pay_info: { tradeNO: "T2026" } };
  return {
    pay_channel: "wallet2_lite",
    pay_info: { timeStamp: "1700000000", nonceStr: "n0nce", package: "prepay_id=wx1", signType: "RSA", paySign: "c2ln" },
  };
}

// The runtime's API object, the global Taro wraps: my (alipay), wx (weapp).
const api = process.env.TARO_ENV === "alipay" ? my : wx;

export default function PayPage() {
  const [status, setStatus] = useState("");
  const onPay = async () => {
    setStatus("paying");
    try {
      const result = await pay(await order(), { api });
      setStatus(result.status);
    } catch (e) {
      setStatus(`error ${e.code}`);
    }
  };
  return (
    <View>
      <Button id="pay" onClick={onPay}>
        Pay
      </Button>
      <Text id="status">{status}</Text>
    </View>
  );
}
